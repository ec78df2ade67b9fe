import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RateLimitGuard } from './rate-limit.guard.js';
import { RateLimitStore } from './rate-limit.store.js';

@Module({ providers: [RateLimitStore, { provide: APP_GUARD, useClass: RateLimitGuard }], exports: [RateLimitStore] })
export class RateLimitModule {}
