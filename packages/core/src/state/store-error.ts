/** A store failure, answered to the model as "try again" rather than thrown. */
export class StoreError extends Error {
  constructor(cause: unknown) {
    super('The loaded-tools store failed', { cause });
    this.name = 'StoreError';
  }
}
