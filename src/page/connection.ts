/** What the Network Information API says of the connection (Chromium's; absent elsewhere). */
export interface Connection {
  saveData?: boolean;
  effectiveType?: string;
}

/** The connection is metered or slow: the browser asks to save data, or it is slower than 4g. */
export function meteredOrSlow(connection: Connection | undefined): boolean {
  if (!connection) return false;
  return connection.saveData === true || ['slow-2g', '2g', '3g'].includes(connection.effectiveType ?? '');
}

/** This page's connection is metered or slow now: nothing big is downloaded ahead of its use. */
export function saveData(): boolean {
  return meteredOrSlow((navigator as Navigator & { connection?: Connection }).connection);
}
