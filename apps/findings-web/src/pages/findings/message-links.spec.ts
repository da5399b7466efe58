import { messageParts } from './message-links';

describe('SARIF message links', () => {
  it('splits a CodeQL-style message into text and links to related locations', () => {
    expect(
      messageParts('This query depends on a [user-provided value](1) and [another](2).'),
    ).toEqual([
      { kind: 'text', text: 'This query depends on a ' },
      { kind: 'related', text: 'user-provided value', id: 1 },
      { kind: 'text', text: ' and ' },
      { kind: 'related', text: 'another', id: 2 },
      { kind: 'text', text: '.' },
    ]);
  });

  it('links to http(s) addresses; any other target is plain text', () => {
    expect(
      messageParts('See [the advisory](https://example.test/a) or [x](javascript:alert(1))'),
    ).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'url', text: 'the advisory', url: 'https://example.test/a' },
      { kind: 'text', text: ' or x)' },
    ]);
  });

  it('keeps escaped brackets as text', () => {
    expect(messageParts('array\\[0\\] is [tainted](3)')).toEqual([
      { kind: 'text', text: 'array[0] is ' },
      { kind: 'related', text: 'tainted', id: 3 },
    ]);
    expect(messageParts('no links here')).toEqual([{ kind: 'text', text: 'no links here' }]);
  });
});
