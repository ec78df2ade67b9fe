export const NETWORK = 'eip155:31337';
export const ASSET = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
export const PAY_TO = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
export const URL_PAID = 'http://fileshift.test/api/x402/v1/detect-file-type';

/** A stand-in for the service's HTTP boundary: a 402 challenge for `amount` unless the request carries a payment. */
export function challengingFetch(amount: string, paid: string[] = []): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const signature = request.headers.get('PAYMENT-SIGNATURE');
    if (signature) {
      paid.push(signature);
      return new Response('{}', { status: 200 });
    }
    const challenge = {
      x402Version: 2,
      resource: { url: URL_PAID, description: '', mimeType: 'application/json' },
      accepts: [{ scheme: 'exact', network: NETWORK, asset: ASSET, amount, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } }],
    };
    return new Response(JSON.stringify(challenge), { status: 402, headers: { 'content-type': 'application/json', 'PAYMENT-REQUIRED': btoa(JSON.stringify(challenge)) } });
  };
}
