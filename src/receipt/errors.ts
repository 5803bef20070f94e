// Errors of signing and verifying receipts that are not the worker's fault: a key or a file the user
// named, or ssh-keygen itself. A receipt that does not verify is a verdict, not one of these.

import { ConfigError, ReviewRemoteError } from "../errors.js";

/** The signing key named with --sign-key cannot be used (exit 2: fix the configuration). */
export class SigningKeyError extends ConfigError {}

/** ssh-keygen is missing, timed out or failed in a way no input explains. */
export class SshKeygenError extends ReviewRemoteError {}
