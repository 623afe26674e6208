import { inboundRecord, mxStatus, withInboundRecord } from '../../src/modules/domains/records';
import type { DnsRecordState } from '../../src/modules/domains/entities';

const txt: DnsRecordState = { type: 'TXT', name: 'd._domainkey.x.test', value: 'v=DKIM1; p=abc', purpose: 'DKIM', status: 'VERIFIED' };

describe('the MX record of inbound mail', () => {
  it('is listed while inbound is on, keeps its status when already there, and goes when it is off', () => {
    const on = withInboundRecord([txt], 'x.test', 'mx.postwire.test', true);
    expect(on).toEqual([
      txt,
      { type: 'MX', name: 'x.test', value: 'mx.postwire.test', priority: 10, purpose: 'inbound', status: 'PENDING' },
    ]);
    const checked = on.map((r) => (r.type === 'MX' ? { ...r, status: 'VERIFIED' as const } : r));
    expect(withInboundRecord(checked, 'x.test', 'mx.postwire.test', true)).toEqual(checked);
    // A new INBOUND_MX_HOST replaces the record, pending again.
    expect(withInboundRecord(checked, 'x.test', 'in.example.test', true)[1]).toMatchObject({ value: 'in.example.test', status: 'PENDING' });
    expect(withInboundRecord(checked, 'x.test', 'mx.postwire.test', false)).toEqual([txt]);
  });

  it('is VERIFIED when an exchange names the host (any case, trailing dot), FAILED when only others do, PENDING when none', () => {
    const record = inboundRecord('x.test', 'mx.postwire.test');
    expect(mxStatus(record, ['MX.Postwire.test.'])).toBe('VERIFIED');
    expect(mxStatus(record, ['aspmx.l.google.com', 'mx.postwire.test'])).toBe('VERIFIED');
    expect(mxStatus(record, ['aspmx.l.google.com'])).toBe('FAILED');
    expect(mxStatus(record, [])).toBe('PENDING');
  });
});
