/**
 * The error classes the core throws through `z.errors`, with plain messages. Zapier's own AppError packs its message
 * into JSON for its runtime to unpack; n8n shows an error's message as it is, so the seam gives the core these.
 */
export class AppError extends Error {
  readonly doNotContextify = true;
  constructor(
    message: string,
    readonly code?: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

const named = (name: string) =>
  class extends Error {
    readonly doNotContextify = true;
    constructor(message = '') {
      super(message);
      this.name = name;
    }
  };

export const HaltedError = named('HaltedError');
export const ExpiredAuthError = named('ExpiredAuthError');
export const RefreshAuthError = named('RefreshAuthError');

export class ThrottledError extends Error {
  readonly doNotContextify = true;
  constructor(
    message: string,
    readonly delay?: number,
  ) {
    super(message);
    this.name = 'ThrottledError';
  }
}

export const errors = { Error: AppError, HaltedError, ExpiredAuthError, RefreshAuthError, ThrottledError };
