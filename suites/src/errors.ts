// Errors the command line turns into exit codes. Anything else that escapes a command is a bug.

/** Bad flags or arguments: the person must change the command line (or the config file). Exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  /** The flag whose value was refused, when there is one: a value from a config file is then named with its file. */
  readonly flag: string | undefined;
  constructor(message: string, flag?: string) {
    super(message);
    this.flag = flag;
  }
}

/** The target (or upstream) did not answer at all, so the run says nothing about its contract. Exit 2. */
export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
}

/** A command whose handler has not been written yet. */
export class NotImplementedError extends Error {
  override name = 'NotImplementedError';
}

/** The site refused the run's credentials: fix them, or run without. Exit 2, before anything was written. */
export class CredentialsRefusedError extends Error {
  override name = 'CredentialsRefusedError';
}

