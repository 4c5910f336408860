export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new random UUID. */
  newId(): string;
}
