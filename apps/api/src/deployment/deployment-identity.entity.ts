import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The one row naming this deployment: every queued job carries its id, so a worker of another deployment
 * that shares the Redis prefix leaves the job alone. It lives in the database because a deployment is its data.
 */
@Entity({ name: 'deployment_identity' })
@Check('ck_deployment_identity_singleton', '"singleton"')
export class DeploymentIdentity {
  @PrimaryColumn({ type: 'boolean', default: true })
  singleton!: boolean;

  @Column({ type: 'uuid' })
  id!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
