import { describe, expect, it } from 'vitest';
import { checkAddresses } from '../src/check-addresses.js';
import { parseIpAddress } from '../src/ip-address.js';
import { OutboundError, OutboundErrorCode } from '../src/outbound-error.js';
import { outboundPolicy, outboundPolicyFromEnv } from '../src/outbound-policy.js';
import { checkTargetUrl, precheckUrl } from '../src/target-url.js';

const NO_EXCEPTIONS = outboundPolicy();

/** The URL and address rules as guardedFetch applies them to a URL that names an address (precheckUrl: the same, before any network). */
function judgeUrl(url: string, policy = NO_EXCEPTIONS): OutboundErrorCode | 'allowed' {
  try {
    precheckUrl(url, policy);
    return 'allowed';
  } catch (error) {
    if (error instanceof OutboundError) return error.code;
    throw error;
  }
}

function judgeAnswers(host: string, answers: string[], policy = NO_EXCEPTIONS): OutboundErrorCode | 'allowed' {
  try {
    checkAddresses(host, answers.map((answer) => parseIpAddress(answer)!), policy, { isLiteral: false, subject: 'The URL' });
    return 'allowed';
  } catch (error) {
    if (error instanceof OutboundError) return error.code;
    throw error;
  }
}

describe('URL rules', () => {
  it.each([
    ['file:///etc/passwd', OutboundErrorCode.RefusedScheme],
    ['ftp://example.com/file', OutboundErrorCode.RefusedScheme],
    ['gopher://example.com:70/_x', OutboundErrorCode.RefusedScheme],
    ['data:text/plain,hi', OutboundErrorCode.RefusedScheme],
    ['javascript:alert(1)', OutboundErrorCode.RefusedScheme],
    ['http://user:secret@example.com/', OutboundErrorCode.RefusedCredentials],
    ['http://user@example.com/', OutboundErrorCode.RefusedCredentials],
    ['http://example.com:8080/', OutboundErrorCode.RefusedPort],
    ['https://example.com:80/', OutboundErrorCode.RefusedPort],
    ['not a url', OutboundErrorCode.InvalidUrl],
    ['/relative/path', OutboundErrorCode.InvalidUrl],
    ['http://example.com/', 'allowed'],
    ['https://example.com:443/x?y#z', 'allowed'],
    ['HTTP://EXAMPLE.COM/', 'allowed'],
  ])('%s: %s', (url, expected) => {
    expect(judgeUrl(url)).toBe(expected);
  });

  // Each notation the WHATWG parser normalises to an address the policy refuses.
  it.each([
    ['http://0x7f000001/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://127.0.0.1./', 'loopback'],
    ['http://0x7f.0.0.1/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:127.0.0.1]/', 'loopback'],
    ['http://[::127.0.0.1]/', 'loopback'],
    ['http://[64:ff9b::127.0.0.1]/', 'loopback'],
    ['http://[2002:7f00:1::]/', 'loopback'],
    ['http://0/', 'unspecified'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://0xa9fea9fe/', 'cloud metadata'],
    ['http://[fd00:ec2::254]/', 'cloud metadata'],
    ['http://100.100.100.200/', 'cloud metadata'],
    ['http://10.0.0.1/', 'private'],
    ['http://012.0.0.1/', 'private'],
    ['http://192.168.0.1/', 'private'],
    ['http://[fc00::1]/', 'private'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
  ])('%s is refused as %s, naming no address', (url, kind) => {
    const target = checkTargetUrl(url, NO_EXCEPTIONS);
    expect(target.address).toBeDefined();
    let refusal: unknown;
    try {
      checkAddresses(target.host, [target.address!], NO_EXCEPTIONS, { isLiteral: true, subject: 'The URL' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(OutboundError);
    expect((refusal as OutboundError).code).toBe(OutboundErrorCode.RefusedAddress);
    expect((refusal as OutboundError).message).toContain(`${kind} address`);
    expect((refusal as OutboundError).message).not.toMatch(/\d+\.\d+\.\d+\.\d+|::/);
  });

  it('allows a port the operator lists', () => {
    expect(judgeUrl('http://example.com:8080/', outboundPolicy({ allowPorts: [8080] }))).toBe('allowed');
  });

  it('drops the fragment, which is never sent', () => {
    expect(checkTargetUrl('https://example.com/a#frag', NO_EXCEPTIONS).url.href).toBe('https://example.com/a');
  });

  it('resolves a redirect against the URL it came from', () => {
    const base = new URL('https://example.com/a/b');
    expect(checkTargetUrl('../c', NO_EXCEPTIONS, { base }).url.href).toBe('https://example.com/c');
    expect(() => checkTargetUrl('file:///etc/passwd', NO_EXCEPTIONS, { base, subject: 'A redirect' })).toThrow(/^A redirect uses file/);
  });
});

describe('operator lists', () => {
  const policy = outboundPolicy({
    allowHosts: ['intranet.example', '.corp.example', '10.1.0.0/16', '169.254.0.0/16'],
    denyHosts: ['evil.example', '*.blocked.example', '8.8.4.0/24', '10.1.2.0/24'],
  });

  it.each([
    // Name-based allow opens a name whatever private address it resolves to.
    ['intranet.example', ['10.9.9.9'], 'allowed'],
    ['INTRANET.EXAMPLE.', ['10.9.9.9'], 'allowed'],
    ['api.corp.example', ['192.168.1.1'], 'allowed'],
    ['corp.example', ['192.168.1.1'], 'allowed'],
    ['notcorp.example', ['192.168.1.1'], OutboundErrorCode.RefusedAddress],
    // Block-based allow opens addresses for any name.
    ['anything.example', ['10.1.0.5'], 'allowed'],
    ['anything.example', ['10.2.0.5'], OutboundErrorCode.RefusedAddress],
    // One refused answer refuses the hop.
    ['anything.example', ['8.8.8.8', '10.2.0.5'], OutboundErrorCode.RefusedAddress],
    // Deny wins over allow, and also refuses public addresses.
    ['anything.example', ['10.1.2.3'], OutboundErrorCode.RefusedAddress],
    ['public.example', ['8.8.4.4'], OutboundErrorCode.RefusedAddress],
    ['public.example', ['8.8.8.8'], 'allowed'],
    // No list opens cloud metadata or the unspecified address.
    ['anything.example', ['169.254.169.254'], OutboundErrorCode.RefusedAddress],
    ['intranet.example', ['169.254.169.254'], OutboundErrorCode.RefusedAddress],
    ['intranet.example', ['0.0.0.0'], OutboundErrorCode.RefusedAddress],
    ['anything.example', ['169.254.10.10'], 'allowed'],
    ['nothing.example', [], OutboundErrorCode.Unreachable],
  ] as const)('%s resolving to %j: %s', (host, answers, expected) => {
    expect(judgeAnswers(host, [...answers], policy)).toBe(expected);
  });

  it.each([
    ['http://evil.example/', OutboundErrorCode.RefusedHost],
    ['http://a.b.blocked.example/', OutboundErrorCode.RefusedHost],
    ['http://blocked.example/', OutboundErrorCode.RefusedHost],
    ['http://8.8.4.4/', OutboundErrorCode.RefusedAddress],
    ['http://10.1.0.1/', 'allowed'],
    ['http://[::ffff:10.1.0.1]/', 'allowed'],
    ['http://[::ffff:8.8.4.4]/', OutboundErrorCode.RefusedAddress],
    ['http://[64:ff9b::8.8.4.4]/', OutboundErrorCode.RefusedAddress],
  ])('%s: %s', (url, expected) => {
    expect(judgeUrl(url, policy)).toBe(expected);
  });

  it('reads the settings from the environment, comma- or space-separated', () => {
    const fromEnv = outboundPolicyFromEnv({ OUTBOUND_ALLOW_HOSTS: 'a.example, .b.example 10.0.0.0/8', OUTBOUND_DENY_HOSTS: 'c.example', OUTBOUND_ALLOW_PORTS: '8080,8443' });
    expect([...fromEnv.allowHosts.names]).toEqual(['a.example']);
    expect(fromEnv.allowHosts.suffixes).toEqual(['.b.example']);
    expect(fromEnv.allowHosts.blocks).toHaveLength(1);
    expect([...fromEnv.denyHosts.names]).toEqual(['c.example']);
    expect([...fromEnv.allowPorts]).toEqual([8080, 8443]);
    expect(outboundPolicyFromEnv({}).allowHosts.blocks).toEqual([]);
  });

  it.each([
    [{ allowHosts: ['0.0.0.0/0'] }, /every address/],
    [{ allowHosts: ['::/0'] }, /every address/],
    [{ allowHosts: ['http://x.example'] }, /OUTBOUND_ALLOW_HOSTS.*neither/],
    [{ denyHosts: ['10.0.0.0/33'] }, /OUTBOUND_DENY_HOSTS/],
    [{ allowPorts: ['http'] }, /OUTBOUND_ALLOW_PORTS/],
    [{ allowPorts: [70000] }, /OUTBOUND_ALLOW_PORTS/],
  ])('refuses the setting %j', (settings, message) => {
    expect(() => outboundPolicy(settings)).toThrow(message);
  });
});
