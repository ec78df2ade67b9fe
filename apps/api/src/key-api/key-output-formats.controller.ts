import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { type FileFormat, resolveFormat } from '@fileshift/formats';
import { LiveConversionsService } from '../live-conversions/live-conversions.service.js';
import { ApiJsonBody, KeyApiErrors, KeyApiJsonResponse } from '../http-kit/api-docs.decorators.js';
import { ZodValidationPipe } from '../http-kit/zod-validation.pipe.js';
import { KeyApiAccess } from './key-api-access.decorator.js';
import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';
import { KeyApiListByTypeResponseSchema, KeyApiListRequestSchema, KeyApiListResponseSchema, type KeyApiListByTypeResponse, type KeyApiListResponse } from './key-api.schemas.js';
import { outputExtensions, outputFormatsByType, targetLosses } from './output-formats.js';

const listRequest = new ZodValidationPipe(KeyApiListRequestSchema);

@KeyApiAccess()
@Controller('api/v1')
export class KeyOutputFormatsController {
  constructor(private readonly liveConversions: LiveConversionsService) {}

  @Post('list_ext_out')
  @HttpCode(200)
  @ApiOperation({ operationId: 'keyListExtOut', summary: 'The output extensions an input extension converts to on this service.' })
  @ApiJsonBody(KeyApiListRequestSchema)
  @KeyApiJsonResponse(200, KeyApiListResponseSchema, 'Output extensions.')
  @KeyApiErrors(400, 401, 429, 500)
  async list(@Body(listRequest) body: { ext_in: string }): Promise<KeyApiListResponse> {
    const source = knownFormat(body.ext_in);
    const { graph } = await this.liveConversions.current();
    return { Status: 'OK', extensions: outputExtensions(source, graph), losses: targetLosses(source, graph) };
  }

  @Post('list_ext_out_by_type')
  @HttpCode(200)
  @ApiOperation({ operationId: 'keyListExtOutByType', summary: 'The output extensions grouped by category: 1 recommended, 0 available.' })
  @ApiJsonBody(KeyApiListRequestSchema)
  @KeyApiJsonResponse(200, KeyApiListByTypeResponseSchema, 'Output extensions by category.')
  @KeyApiErrors(400, 401, 429, 500)
  async listByType(@Body(listRequest) body: { ext_in: string }): Promise<KeyApiListByTypeResponse> {
    return { Status: 'OK', ...outputFormatsByType(knownFormat(body.ext_in), (await this.liveConversions.current()).graph) };
  }
}

function knownFormat(extension: string): FileFormat {
  const format = resolveFormat(extension);
  if (!format) throw new KeyApiRequestError(KeyApiRequestErrorCode.UnknownExtension, `Unknown input extension "${extension}".`);
  return format;
}
