import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from '../../test/support/s3-test-server.js';
import { checkBucketReachable } from './check-bucket.js';

describe('checkBucketReachable (start-up), against s3rver', () => {
  let server: S3TestServer;
  beforeAll(async () => {
    server = await startS3TestServer();
  });
  afterAll(() => server?.close());

  it('passes for the configured bucket', async () => {
    expect(await checkBucketReachable(server.config, 5000)).toBeNull();
  });

  it('names a missing bucket', async () => {
    const problem = await checkBucketReachable({ ...server.config, bucket: 'not-created' }, 5000);
    expect(problem).toMatch(/^The S3 bucket "not-created" is not usable at http:\/\/127\.0\.0\.1:\d+ \(no such bucket\)/);
  });

  it('names credentials the store refuses, without showing the secret', async () => {
    const problem = await checkBucketReachable({ ...server.config, accessKeyId: 'SOMEONE-ELSE', secretAccessKey: 'wrong-secret-value' }, 5000);
    expect(problem).toContain('access denied');
    expect(problem).not.toContain('wrong-secret-value');
  });

  it('names an endpoint that does not answer', async () => {
    const problem = await checkBucketReachable({ ...server.config, endpoint: 'http://127.0.0.1:9' }, 5000);
    expect(problem).toContain('ECONNREFUSED');
  });
});
