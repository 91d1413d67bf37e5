import { createLogger } from '@wb/platform';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeVatChecker, ViesVatChecker, viesNumber } from './vatChecker';

const log = createLogger({ service: 'test', level: 'silent' });

describe('VAT number checks', () => {
  it('VIES numbers drop the prefix; Greece is EL', () => {
    expect(viesNumber('EE', 'ee 1012-34567')).toEqual({ ms: 'EE', number: '101234567' });
    expect(viesNumber('GR', 'EL123456789')).toEqual({ ms: 'EL', number: '123456789' });
  });

  it('the fake: …0000 is not registered, …9999 is a member state service down', async () => {
    const fake = new FakeVatChecker();
    expect(await fake.check('DE', 'DE123456789')).toBe('valid');
    expect(await fake.check('DE', 'DE123450000')).toBe('invalid');
    expect(await fake.check('DE', 'DE123459999')).toBe('unavailable');
  });

  it('VIES over HTTP: valid, invalid, member state unavailable, unreachable', async () => {
    const answers: Record<string, { status: number; body: unknown }> = {
      '/ms/DE/vat/123456789': { status: 200, body: { isValid: true, userError: 'VALID' } },
      '/ms/DE/vat/111111111': { status: 200, body: { isValid: false, userError: 'INVALID' } },
      '/ms/FR/vat/XX123456789': { status: 200, body: { isValid: false, userError: 'MS_UNAVAILABLE' } },
    };
    const server = http.createServer((req, res) => {
      const a = answers[req.url ?? ''] ?? { status: 500, body: {} };
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const vies = new ViesVatChecker(url, 2000, log);
      expect(await vies.check('DE', 'DE123456789')).toBe('valid');
      expect(await vies.check('DE', '111111111')).toBe('invalid');
      expect(await vies.check('FR', 'FRXX123456789')).toBe('unavailable');
      expect(await vies.check('IT', 'IT12345678901')).toBe('unavailable'); // 500
      expect(await new ViesVatChecker('http://127.0.0.1:1', 500, log).check('DE', '123456789')).toBe('unavailable');
    } finally {
      server.close();
    }
  });
});
