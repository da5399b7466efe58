import { QuerySyntaxError } from './query-syntax.errors';

export type QueryOperator = ':' | '>' | '<' | '>=' | '<=';

/** One value of a field term (an alternative between `|`). Positions are 1-based. */
export interface ValueToken {
  text: string;
  quoted: boolean;
  position: number;
}

export interface FieldToken {
  type: 'field';
  name: string;
  operator: QueryOperator;
  negated: boolean;
  /** Position of the `-` when negated, else of the field name. */
  position: number;
  namePosition: number;
  operatorPosition: number;
  values: ValueToken[];
}

export interface TextToken {
  type: 'text';
  text: string;
  quoted: boolean;
  negated: boolean;
  position: number;
}

export interface KeywordToken {
  type: 'and' | 'or';
  position: number;
}

export type QueryToken = FieldToken | TextToken | KeywordToken;

const FIELD_PREFIX = /^([A-Za-z_][A-Za-z0-9_]*)(>=|<=|:|>|<)/;

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

function isEnd(input: string, i: number): boolean {
  return i >= input.length || isSpace(input[i]);
}

function fail(index: number, problem: string): never {
  throw new QuerySyntaxError(index + 1, problem);
}

/** Lexes `input` into terms and keywords; every problem is a `QuerySyntaxError`. */
export class QueryLexer {
  private i = 0;

  constructor(private readonly input: string) {}

  tokens(): QueryToken[] {
    const out: QueryToken[] = [];
    for (;;) {
      while (isSpace(this.input[this.i])) this.i += 1;
      if (this.i >= this.input.length) return out;
      out.push(this.term());
    }
  }

  private term(): QueryToken {
    const start = this.i;
    const input = this.input;
    if (input[start] === '(' || input[start] === ')') {
      fail(
        start,
        `unexpected "${input[start]}": parentheses are not supported (terms are evaluated left to right)`,
      );
    }
    const negated = input[start] === '-';
    if (negated) {
      this.i += 1;
      if (isEnd(input, this.i)) fail(start, 'expected a field or a search term after "-"');
    }
    if (input[this.i] === '"') {
      const text = this.quoted();
      this.expectTermEnd();
      if (text === '') fail(start, 'empty quoted phrase');
      return { type: 'text', text, quoted: true, negated, position: start + 1 };
    }
    const match = FIELD_PREFIX.exec(input.slice(this.i));
    if (match) return this.fieldTerm(start, negated, match[1], match[2] as QueryOperator);
    return this.bareWord(start, negated);
  }

  private fieldTerm(
    start: number,
    negated: boolean,
    name: string,
    operator: QueryOperator,
  ): FieldToken {
    const namePosition = this.i + 1;
    const operatorPosition = this.i + name.length + 1;
    this.i += name.length + operator.length;
    if (isEnd(this.input, this.i)) {
      fail(this.i, `expected a value after "${name}${operator}"`);
    }
    const values: ValueToken[] = [];
    for (;;) {
      values.push(this.value(values.length === 0 ? `${name}${operator}` : '|'));
      if (this.input[this.i] !== '|') break;
      this.i += 1;
      if (isEnd(this.input, this.i)) fail(this.i, 'expected a value after "|"');
    }
    this.expectTermEnd();
    return {
      type: 'field',
      name,
      operator,
      negated,
      position: start + 1,
      namePosition,
      operatorPosition,
      values,
    };
  }

  private value(after: string): ValueToken {
    const start = this.i;
    if (this.input[start] === '"') {
      const text = this.quoted();
      if (text === '') fail(start, `empty value after "${after}"`);
      return { text, quoted: true, position: start + 1 };
    }
    while (!isEnd(this.input, this.i) && !'|"()'.includes(this.input[this.i])) this.i += 1;
    const stop = this.input[this.i];
    if (stop === '"' || stop === '(' || stop === ')') {
      fail(this.i, `unexpected "${stop}" inside a value (quote the whole value)`);
    }
    if (this.i === start) fail(start, `expected a value after "${after}"`);
    return { text: this.input.slice(start, this.i), quoted: false, position: start + 1 };
  }

  private bareWord(start: number, negated: boolean): QueryToken {
    const wordStart = this.i;
    while (!isEnd(this.input, this.i)) {
      const ch = this.input[this.i];
      if (ch === '"' || ch === '(' || ch === ')') {
        fail(
          this.i,
          `unexpected "${ch}" in "${this.input.slice(wordStart, this.i + 1)}" (quote the whole term)`,
        );
      }
      this.i += 1;
    }
    const text = this.input.slice(wordStart, this.i);
    if (/^[:<>=|]/.test(text))
      fail(wordStart, `unexpected "${text[0]}": expected a field name before it`);
    if (!negated && (text === 'AND' || text === 'OR')) {
      return { type: text === 'AND' ? 'and' : 'or', position: start + 1 };
    }
    return { type: 'text', text, quoted: false, negated, position: start + 1 };
  }

  /** Reads a `"..."` string at `this.i` (escapes `\"` and `\\`); returns its content. */
  private quoted(): string {
    const open = this.i;
    let out = '';
    this.i += 1;
    while (this.i < this.input.length) {
      const ch = this.input[this.i];
      if (ch === '"') {
        this.i += 1;
        return out;
      }
      if (ch === '\\' && (this.input[this.i + 1] === '"' || this.input[this.i + 1] === '\\')) {
        out += this.input[this.i + 1];
        this.i += 2;
      } else {
        out += ch;
        this.i += 1;
      }
    }
    return fail(open, 'unterminated quote');
  }

  private expectTermEnd(): void {
    if (!isEnd(this.input, this.i)) {
      fail(
        this.i,
        `unexpected "${this.input[this.i]}" after a quoted value (add a space between terms)`,
      );
    }
  }
}
