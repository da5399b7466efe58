import { checkBinding } from './ssh-key-binding';

describe('checkBinding', () => {
  const owner = 'alice@example.com';

  it('matches when the comment carries the owner login or email', () => {
    expect(
      checkBinding({ deviceOwner: owner, claimedUser: null, comment: 'alice@laptop' }).verdict,
    ).toBe('match');
    expect(
      checkBinding({ deviceOwner: owner, claimedUser: null, comment: 'Alice@Example.com' }).verdict,
    ).toBe('match');
    expect(
      checkBinding({ deviceOwner: owner, claimedUser: 'ALICE@example.com', comment: null }).verdict,
    ).toBe('match');
  });

  it('finds a contradiction when a name disagrees with the owner', () => {
    expect(
      checkBinding({ deviceOwner: owner, claimedUser: null, comment: 'bob@laptop' }).verdict,
    ).toBe('contradiction');
    expect(
      checkBinding({
        deviceOwner: owner,
        claimedUser: 'alice@evil.example',
        comment: 'alice@laptop',
      }).verdict,
    ).toBe('contradiction');
  });

  it('cannot check without an owner or without any name', () => {
    expect(
      checkBinding({ deviceOwner: null, claimedUser: owner, comment: 'alice@x' }).verdict,
    ).toBe('unverifiable');
    expect(
      checkBinding({ deviceOwner: owner, claimedUser: null, comment: 'yubikey 5' }).verdict,
    ).toBe('unverifiable');
    expect(checkBinding({ deviceOwner: owner, claimedUser: null, comment: null }).verdict).toBe(
      'unverifiable',
    );
  });
});
