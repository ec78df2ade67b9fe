import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { challengeExtensions, X402PaymentGate } from '@fileshift/x402-nest';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { LiveConversionsService } from '../live-conversions/live-conversions.service.js';
import { ApiJsonResponse } from '../http-kit/api-docs.decorators.js';
import { availableConversions } from './available-conversions.js';
import { publishedBazaarExtensions } from '../payments/bazaar-discovery.js';
import { formatsView } from './formats-view.js';
import { type FormatCatalogue, FormatCatalogueSchema } from './formats-view.schemas.js';
import { renderLandingPage } from './landing-page.js';
import { renderLlmsTxt } from './llms-txt.js';
import { OpenApiDocumentStore } from '../http-kit/openapi-document.store.js';
import { paidResources } from './paid-resources.js';
import { PaymentRails } from '../payments/payment-rails.js';
import { ReceiptSigner } from '../payments/receipts/receipt-signer.js';
import { publicBaseUrl } from '../http-kit/public-base-url.js';
import { publishedChallenges } from './published-challenges.js';
import { renderWellKnownX402 } from './well-known-x402.js';

const textResponse = (type: string, description: string) =>
  ApiResponse({ status: 200, description, content: { [type]: { schema: { type: 'string' } } } });

/** Free discovery documents for humans and agents. */
@ApiTags('discovery')
@Controller()
export class DiscoveryController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly openApi: OpenApiDocumentStore,
    private readonly rails: PaymentRails,
    private readonly liveConversions: LiveConversionsService,
    private readonly signer: ReceiptSigner,
    private readonly gate: X402PaymentGate,
  ) {}

  @Get('api/x402/v1')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiOperation({ operationId: 'getLandingPage', summary: 'Landing page: what the service does, the flow, prices, links (free).' })
  @ApiProduces('text/html')
  @textResponse('text/html', 'HTML landing page.')
  landing(): string {
    return renderLandingPage({ version: this.config.version, resources: paidResources(this.config.prices) });
  }

  @Get('api/x402/v1/formats')
  @ApiOperation({
    operationId: 'listFormats',
    summary: 'The format catalogue (free): every input format the running workers read, its targets with their categories and options, and the options\' JSON Schemas.',
  })
  @ApiJsonResponse(200, FormatCatalogueSchema, 'The format catalogue of the running workers.')
  async formats(): Promise<FormatCatalogue> {
    return formatsView((await this.liveConversions.current()).graph);
  }

  @Get('openapi.json')
  @ApiOperation({ operationId: 'getOpenApiJson', summary: 'This OpenAPI 3.1 document as JSON (free).' })
  @ApiResponse({ status: 200, description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } })
  openApiJson(): object {
    return this.openApi.json();
  }

  @Get('openapi.yaml')
  @Header('Content-Type', 'application/yaml; charset=utf-8')
  @ApiOperation({ operationId: 'getOpenApiYaml', summary: 'This OpenAPI 3.1 document as YAML (free).' })
  @ApiProduces('application/yaml')
  @textResponse('application/yaml', 'OpenAPI 3.1 document.')
  openApiYaml(): string {
    return this.openApi.asYaml();
  }

  @Get('llms.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @ApiOperation({ operationId: 'getLlmsTxt', summary: 'Agent-readable summary of the service (free).' })
  @ApiProduces('text/plain')
  @textResponse('text/plain', 'llms.txt')
  async llmsTxt(@Req() request: FastifyRequest): Promise<string> {
    return renderLlmsTxt({
      baseUrl: publicBaseUrl(this.config, request),
      resources: paidResources(this.config.prices),
      convertWaitSeconds: this.config.keyApi.convertWaitSeconds,
      conversions: availableConversions((await this.liveConversions.current()).graph),
    });
  }

  @Get('.well-known/x402.json')
  @ApiOperation({ operationId: 'getX402Discovery', summary: 'Paid resources with prices, networks, assets and payTo, and the conversions the running workers offer (free).' })
  @ApiResponse({ status: 200, description: 'x402 discovery document.', content: { 'application/json': { schema: { type: 'object' } } } })
  async wellKnownX402(@Req() request: FastifyRequest): Promise<object> {
    const baseUrl = publicBaseUrl(this.config, request);
    const resources = paidResources(this.config.prices);
    return renderWellKnownX402({
      baseUrl,
      version: this.config.version,
      resources,
      challenges: await publishedChallenges(this.gate, resources, baseUrl),
      accepts: this.rails.accepts,
      paymentsMode: this.rails.mode,
      devChain: this.rails.devChain,
      conversions: availableConversions((await this.liveConversions.current()).graph),
      // As each challenge declares them: payment identifiers accepted, and Bazaar metadata where there is some.
      extensionsOf: (resource) => challengeExtensions(publishedBazaarExtensions(this.openApi.json(), resource.operationId, resource.method)),
    });
  }

  @Get('.well-known/did.json')
  @ApiOperation({
    operationId: 'getDidDocument',
    summary: 'The did:web document publishing the Ed25519 key that signs x402 offers, receipts and delivery records (free).',
  })
  @ApiResponse({ status: 200, description: 'DID document.', content: { 'application/json': { schema: { type: 'object' } } } })
  didDocument(@Req() request: FastifyRequest): object {
    return this.signer.didDocument(publicBaseUrl(this.config, request));
  }
}
