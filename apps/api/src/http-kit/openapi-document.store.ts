import { Injectable, Module } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { stringify } from 'yaml';

/** Holds the OpenAPI document built once after the application initialised. */
@Injectable()
export class OpenApiDocumentStore {
  private document?: OpenAPIObject;
  private yaml?: string;

  set(document: OpenAPIObject): void {
    this.document = document;
    // Long descriptions stay on one line each: folded, a line of prose may start like a stack frame ("    at …").
    this.yaml = stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
  }

  json(): OpenAPIObject {
    if (!this.document) throw new Error('OpenAPI document requested before it was built');
    return this.document;
  }

  asYaml(): string {
    this.json();
    return this.yaml!;
  }
}

/** Provides the one OpenAPI document store to every module that reads it (discovery, the payment challenges). */
@Module({ providers: [OpenApiDocumentStore], exports: [OpenApiDocumentStore] })
export class OpenApiDocumentModule {}
