import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { KeyApiAccessGuard } from './key-api-access.guard.js';

/** A key API controller: the Api-Key header or, without it, the no-key limits (both documented). */
export const KeyApiAccess = () =>
  applyDecorators(UseGuards(KeyApiAccessGuard), ApiTags('key-api'), ApiSecurity('ApiKey'), ApiSecurity({} as never));
