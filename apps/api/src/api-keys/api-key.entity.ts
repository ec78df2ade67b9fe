import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

const bigintNumber = { to: (v: number) => v, from: (v: string) => Number(v) };

/** A key of the key API. Only a SHA-256 of the secret is stored; the secret is shown once, at creation. */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  /** The secret's first characters, to recognise a key in listings; not enough to use it. */
  @Column({ name: 'key_prefix', type: 'text' })
  keyPrefix!: string;

  @Index('uq_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @Column({ name: 'requests_per_minute', type: 'integer' })
  requestsPerMinute!: number;

  /** Requests per UTC day. */
  @Column({ name: 'daily_quota', type: 'integer' })
  dailyQuota!: number;

  @Column({ name: 'max_upload_bytes', type: 'bigint', transformer: bigintNumber })
  maxUploadBytes!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
