export type KeyPair = { private: string; public: string; fingerprint: string };
export type KeyDir = {
  dir: string;
  key(type?: "ed25519" | "ecdsa" | "rsa", options?: { passphrase?: string }): KeyPair;
  certify(ca: KeyPair, key: KeyPair, principals: string, validity?: string): string;
  allowedSigners(lines: string[]): string;
  agent(keys: KeyPair[]): NodeJS.ProcessEnv;
  remove(): void;
};
export function createKeyDir(): KeyDir;
export function signerLine(principal: string, publicKeyFile: string, options?: string): string;
