import dns2 from 'dns2';

const { Packet } = dns2;

export type DnsRecord =
  | { type: 'TXT'; value: string }
  | { type: 'MX'; exchange: string; priority: number }
  | { type: 'A'; address: string }
  | { type: 'AAAA'; address: string }
  | { type: 'NS'; ns: string };

const TYPE_NAMES: Record<number, DnsRecord['type']> = {
  [Packet.TYPE.TXT]: 'TXT',
  [Packet.TYPE.MX]: 'MX',
  [Packet.TYPE.A]: 'A',
  [Packet.TYPE.AAAA]: 'AAAA',
  [Packet.TYPE.NS]: 'NS',
};

/** TXT strings longer than 255 octets are sent as several character-strings, as real zones do for DKIM keys. */
const chunks = (value: string) => value.match(/.{1,255}/gs) ?? [''];

/**
 * The records of a name the zone does not hold, of the type asked for; undefined when the name does not
 * exist (NXDOMAIN). npm start's development DNS answers from the database and the system's resolvers here.
 */
export type DnsFallback = (name: string, type: DnsRecord['type']) => Promise<DnsRecord[] | undefined>;

/**
 * A real UDP DNS server on loopback, answering from an in-memory zone that tests edit while it runs, then from
 * its fallback. The tests run it on a free port; `npm start` runs it for development (scripts/lib/dev-dns.ts).
 */
export class DnsServer {
  private readonly zone = new Map<string, DnsRecord[]>();
  private server!: ReturnType<typeof dns2.createServer>;
  port = 0;

  static async start(options: { port?: number; fallback?: DnsFallback } = {}): Promise<DnsServer> {
    const s = new DnsServer();
    const recordsOf = async (name: string, type: DnsRecord['type'] | undefined) => {
      const held = s.zone.get(name);
      if (held) return held.filter((r) => r.type === type);
      if (!options.fallback || !type) return undefined;
      return options.fallback(name, type).catch(() => undefined);
    };
    type Send = (response: InstanceType<typeof Packet>) => Promise<unknown>;
    const answer = async (request: InstanceType<typeof Packet>, send: Send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (question) {
        const records = await recordsOf(question.name.toLowerCase(), TYPE_NAMES[question.type]);
        for (const r of records ?? []) {
          const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 1 };
          if (r.type === 'TXT') response.answers.push({ ...base, data: chunks(r.value) } as never);
          else response.answers.push({ ...base, ...r, type: question.type } as never);
        }
        if (!records) response.header.rcode = 3; // NXDOMAIN
      }
      // A client that gave up before the answer left is no failure of the server: its resolver retries or times out.
      await send(response).catch(() => {});
    };
    s.server = dns2.createServer({ udp: true, handle: (request, send) => void answer(request, send) });
    const addresses = await s.server.listen({ udp: { port: options.port ?? 0, address: '127.0.0.1' } });
    s.port = addresses.udp!.port;
    return s;
  }

  /** The value for DNS_SERVERS. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  set(name: string, records: DnsRecord[]): void {
    this.zone.set(name.toLowerCase(), records);
  }

  add(name: string, record: DnsRecord): void {
    this.zone.set(name.toLowerCase(), [...(this.zone.get(name.toLowerCase()) ?? []), record]);
  }

  remove(name: string): void {
    this.zone.delete(name.toLowerCase());
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
