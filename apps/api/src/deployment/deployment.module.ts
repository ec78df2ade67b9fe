import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/app-config.token.js';
import { databaseDescription } from '../database/data-source-options.js';
import { DEPLOYMENT, type Deployment } from './deployment.js';
import { DeploymentIdentity } from './deployment-identity.entity.js';

/** The identity of this deployment, read once at start-up from its database (the migration created it). */
@Global()
@Module({
  providers: [
    {
      provide: DEPLOYMENT,
      inject: [APP_CONFIG, DataSource],
      useFactory: async (config: AppConfig, dataSource: DataSource): Promise<Deployment> => {
        const identity = await dataSource.getRepository(DeploymentIdentity).findOneByOrFail({ singleton: true });
        return { id: identity.id, database: databaseDescription(config) };
      },
    },
  ],
  exports: [DEPLOYMENT],
})
export class DeploymentModule {}
