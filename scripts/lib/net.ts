import net from 'node:net';

export function isPortOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function waitForPort(port: number, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await isPortOpen(port))) {
    if (Date.now() > deadline) throw new Error(`${what} did not open port ${port} within ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
