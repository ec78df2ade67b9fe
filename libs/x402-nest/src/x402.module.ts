import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { X402PaymentGate, type X402GateOptions } from './x402-payment.gate.js';

export interface X402ModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
  useFactory: (...args: any[]) => X402GateOptions | Promise<X402GateOptions>;
  /** Token of the gate; register the module several times with different tokens for several gates. */
  token?: string | symbol;
}

/** Provides an {@link X402PaymentGate} built from the application's configuration; reads nothing global. */
@Module({})
export class X402Module {
  static forRootAsync(options: X402ModuleAsyncOptions): DynamicModule {
    const token = options.token ?? X402PaymentGate;
    return {
      module: X402Module,
      global: true,
      imports: options.imports ?? [],
      providers: [
        {
          provide: token,
          inject: options.inject ?? [],
          useFactory: async (...args: unknown[]) => new X402PaymentGate(await options.useFactory(...args)),
        },
      ],
      exports: [token],
    };
  }
}
