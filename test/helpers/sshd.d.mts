export type SshdStarted = { config: string; port: number; stop(): void };
export function findSshd(): string | undefined;
export function startSshd(): Promise<SshdStarted | { reason: string }>;
