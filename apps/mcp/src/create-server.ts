import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallPayments } from './call-payments.js';
import type { FileshiftContext } from './fileshift-context.js';
import { AllowedRoots } from './local-paths/allowed-roots.js';
import { networkName } from './network-names.js';
import { ResultResources } from './results/result-resources.js';
import { askUserToApprove, askUserToApprovePlan, canAskUser } from './payment-approval.js';
import { servePortableToolSchemas } from './portable-schemas.js';
import { registerConvertAndDownload } from './tools/convert-and-download.tool.js';
import { registerConvertFile } from './tools/convert-file.tool.js';
import { registerDeleteJob } from './tools/delete-job.tool.js';
import { registerDetectFileType } from './tools/detect-file-type.tool.js';
import { registerGetConversionStatus } from './tools/get-conversion-status.tool.js';
import { registerListFormats } from './tools/list-formats.tool.js';
import { registerListOutputFormats } from './tools/list-output-formats.tool.js';
import { registerPurchaseResult } from './tools/purchase-result.tool.js';
import type { ToolDeps } from './tools/tool-deps.js';
import { registerWalletStatus } from './tools/wallet-status.tool.js';
import { refuseUnknownTools } from './unknown-tool-guard.js';

export const SERVER_INFO = { name: 'fileshift', version: '1.0.0' };

/** One MCP server (one per session over HTTP) with every Fileshift tool; the context, and so the wallet, is shared. */
export function createServer(context: FileshiftContext, { allowLocalPaths }: { allowLocalPaths: boolean }): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: { listChanged: true } },
    instructions:
      'Fileshift detects what a file really is and converts it (images, audio and more). Paid tools spend USDC from the agent wallet ' +
      "within its limits: wallet_status shows the budget left and the service's prices. For a conversion, convert_and_download does everything in one call.",
  });
  const deps: ToolDeps = {
    server,
    context,
    fileSources: { localRoots: allowLocalPaths ? new AllowedRoots(server.server, context.config.allowedRoots) : null },
    results: new ResultResources(server),
    async payingClient(plan) {
      const payments = new CallPayments();
      const client = await context.client({
        approve: async (payment) => askUserToApprove(server, payment, networkName(payment.network, await context.serviceFacts().catch(() => undefined))),
        approvePlan: (plan) => askUserToApprovePlan(server, plan),
        onPayment: payments.onPayment,
      }, plan);
      return { client, payments };
    },
    canAskUser: () => canAskUser(server),
  };
  for (const register of [
    registerDetectFileType,
    registerListOutputFormats,
    registerListFormats,
    registerConvertFile,
    registerGetConversionStatus,
    registerPurchaseResult,
    registerConvertAndDownload,
    registerDeleteJob,
    registerWalletStatus,
  ]) {
    register(deps);
  }
  refuseUnknownTools(server);
  servePortableToolSchemas(server);
  return server;
}
