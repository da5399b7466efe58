import type { SshKeyBindingVerdict } from './ssh-key.entity';

/** What the service knows when it binds a raw key to a person. */
export interface BindingEvidence {
  /** Owner of the registering device (lower-cased email), null when the device has none. */
  deviceOwner: string | null;
  /** The person the agent says the key belongs to (email or UPN), when it sent one. */
  claimedUser: string | null;
  /** The key's comment (`ssh-keygen` writes `user@hostname`). */
  comment: string | null;
}

export interface BindingResult {
  verdict: Exclude<SshKeyBindingVerdict, 'not_checked'>;
  detail: string;
}

/**
 * The binding-to-person check. The key must name its person somewhere and every name found
 * must agree with the device owner:
 * - the claimed user (email or UPN) must equal the owner's email, case-insensitively;
 * - a comment of the form `name@host` (ssh-keygen's default) must carry the owner's login
 *   (local part of the email) as `name`, or be the owner's email itself.
 * No owner, or nothing naming a person → `unverifiable`; any disagreement → `contradiction`.
 */
export function checkBinding(evidence: BindingEvidence): BindingResult {
  const owner = evidence.deviceOwner?.toLowerCase() ?? null;
  if (!owner) return { verdict: 'unverifiable', detail: 'the device has no owner' };
  const ownerLogin = owner.slice(0, owner.lastIndexOf('@')).toLowerCase();
  const problems: string[] = [];
  let named = false;
  if (evidence.claimedUser) {
    named = true;
    if (evidence.claimedUser.trim().toLowerCase() !== owner) {
      problems.push(`claimed user ${evidence.claimedUser} is not the device owner ${owner}`);
    }
  }
  const commentName = personInComment(evidence.comment);
  if (commentName) {
    named = true;
    if (commentName !== owner && commentName.split('@')[0] !== ownerLogin) {
      problems.push(`key comment names ${commentName}, the device owner is ${owner}`);
    }
  }
  if (problems.length > 0) return { verdict: 'contradiction', detail: clip(problems.join('; ')) };
  if (!named) {
    return { verdict: 'unverifiable', detail: 'neither the request nor the key names a person' };
  }
  return { verdict: 'match', detail: clip(`names agree with the device owner ${owner}`) };
}

/** The `name@host` word of a comment (lower-cased), or null when it has none. */
function personInComment(comment: string | null): string | null {
  if (!comment) return null;
  const word = comment.split(/\s+/).find((w) => /^[^@\s]+@[^@\s]+$/.test(w));
  return word ? word.toLowerCase() : null;
}

function clip(text: string): string {
  return text.length > 255 ? `${text.slice(0, 252)}...` : text;
}
