/**
 * The work one argument check may do, counted in steps: every part of the check spends from it,
 * and the check stops when it runs out. A step is a small, bounded piece of work (a keyword
 * applied to a value, a state of the pattern matcher at one character, a few characters
 * scanned), so the steps a check may take bound its time, whatever the schema and the arguments.
 */
export class WorkBudget {
  /** The steps this budget allows. */
  readonly limit: number;
  private left: number;

  /** @param limit - the steps allowed */
  constructor(limit: number) {
    this.limit = limit;
    this.left = limit;
  }

  /** The steps spent so far (at most the limit: the step that overdrew it is not counted). */
  get spent(): number {
    return this.limit - Math.max(this.left, 0);
  }

  /**
   * Takes `steps` from the budget.
   * @param steps - the work about to be done (or just done), in steps
   * @throws {WorkBudgetExhausted} once the budget is overdrawn
   */
  spend(steps: number): void {
    this.left -= steps;
    if (this.left < 0) throw new WorkBudgetExhausted(this.limit);
  }
}

/** Thrown by {@link WorkBudget.spend} when a check has used up its steps: the check stops there. */
export class WorkBudgetExhausted extends Error {
  /** The budget's limit, in steps. */
  readonly limit: number;

  /** @param limit - the steps the budget allowed */
  constructor(limit: number) {
    super(`The check used up its ${limit} steps.`);
    this.name = 'WorkBudgetExhausted';
    this.limit = limit;
  }
}
