import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A file uploaded through the key API, convertible (by the same key) until it expires after 24 hours. */
@Entity({ name: 'key_api_uploads' })
export class KeyApiUpload {
  /** The unguessable server-side `Filename` returned by the upload. */
  @PrimaryColumn({ type: 'text' })
  filename!: string;

  /** The uploading key; null for an upload made without a key. */
  @Column({ name: 'api_key_id', type: 'uuid', nullable: true })
  apiKeyId!: string | null;

  @Column({ name: 'original_filename', type: 'text' })
  originalFilename!: string;

  @Column({ name: 'size_bytes', type: 'bigint', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  sizeBytes!: number;

  @Column({ type: 'text' })
  sha256!: string;

  /** The first bytes, so a convert request can detect the format without reading the file again. */
  @Column({ type: 'bytea' })
  head!: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Index('ix_key_api_uploads_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
