import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { KeyApi } from './key-api-errors.js';
import { KeyApiAccessGuard } from './key-api-access.guard.js';

/** A key API controller: the Api-Key header or, without it, the no-key limits (both documented); errors in the key API's shape. */
export const KeyApiAccess = () =>
  applyDecorators(KeyApi(), UseGuards(KeyApiAccessGuard), ApiTags('key-api'), ApiSecurity('ApiKey'), ApiSecurity({} as never));
