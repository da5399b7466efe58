/** Positions are 1-based character columns of the query string. */
export type ComparisonOperator = '>' | '<' | '>=' | '<=';

export interface QueryValue {
  /** Value as written (quotes and escapes removed). */
  raw: string;
  /** Canonical value: enum spelling, boolean, number, normalized text. */
  value: string | number | boolean;
  /** Unquoted value containing `*`: an ILIKE pattern. */
  glob: boolean;
  quoted: boolean;
  position: number;
}

/** `field:value`, `-field:a|b`, `field:*glob*`. */
export interface FieldTermNode {
  type: 'field';
  field: string;
  negated: boolean;
  values: QueryValue[];
  position: number;
}

/** `field>N`, `field<=N`, ... on numeric fields. */
export interface ComparisonTermNode {
  type: 'comparison';
  field: string;
  operator: ComparisonOperator;
  value: number;
  negated: boolean;
  position: number;
}

/** Bare word or quoted phrase: full-text search. */
export interface TextTermNode {
  type: 'text';
  text: string;
  quoted: boolean;
  negated: boolean;
  position: number;
}

export type QueryTermNode = FieldTermNode | ComparisonTermNode | TextTermNode;

/**
 * `left AND right` / `left OR right`. Evaluation is strictly left to right without
 * precedence, so the tree is left-deep and `right` is always a term. `explicit` is false for
 * implicit AND (juxtaposition); `position` is the operator's (or the right term's).
 */
export interface BinaryNode {
  type: 'and' | 'or';
  left: QueryNode;
  right: QueryTermNode;
  explicit: boolean;
  position: number;
}

export type QueryNode = QueryTermNode | BinaryNode;
