/**
 * Issue 25, item 5 — the comment thread: the author edits and deletes their own comments; an
 * analyst cannot touch another person's comment; an admin may delete (never edit) anyone's
 * (docs/findings-service/findings-api.md, Comments).
 */
import type { Page } from '@playwright/test';
import {
  expect as baseExpect,
  expectAccessible,
  sarif,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';

// Ingestion, two browser contexts and several page loads on a shared 2-core machine.
test.slow();
const expect = baseExpect.configure({ timeout: 45_000 });

async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${webUrl()}/login`);
  await page.getByLabel('Login (e-mail)').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('current-user')).toHaveText(email);
}

async function addComment(page: Page, text: string): Promise<void> {
  const comments = page.getByTestId('comments');
  await comments.getByLabel('New comment').fill(text);
  await comments.getByRole('button', { name: 'Add comment' }).click();
  await expect(comments.getByTestId('comment-body').filter({ hasText: text })).toHaveCount(1);
}

test('the author edits and deletes a comment; others may not edit it; an admin may delete it', async ({
  page,
  api,
  browser,
}) => {
  // Two people's sessions, each page load after a mutation: beyond test.slow() on this machine.
  test.setTimeout(600_000);
  const project = await api.project(unique('comments'));
  const product = await api.product(project.id, unique('api'));
  await api.ingest(
    product.id,
    sarif('gitleaks', [
      { rule: 'aws-access-token', level: 'error', file: '.env', line: 3, text: 'AWS key' },
    ]),
  );
  const { items } = await api.get<{ items: { id: string }[] }>(
    `/api/v1/findings?product_id=${product.id}&limit=5`,
  );
  const findingUrl = `${webUrl()}/findings/${items[0]?.id ?? ''}`;

  // The admin writes, edits (inline check first) and deletes their own comment.
  await signIn(page);
  await page.goto(findingUrl);
  const comments = page.getByTestId('comments');
  await addComment(page, 'Key in .env of prod.');
  await addComment(page, 'Typo comment, to be removed.');
  const first = comments.getByTestId('comment').first();
  await first.getByRole('button', { name: /^Edit the comment of/ }).click();
  const editor = first.getByRole('form', { name: 'Edit comment' });
  await editor.getByLabel('Comment text').fill('   ');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByText('Required')).toBeVisible();
  await editor.getByLabel('Comment text').fill('Key in .env of prod; rotated on Monday.');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(first.getByTestId('comment-body')).toHaveText(
    'Key in .env of prod; rotated on Monday.',
  );
  await expect(first.getByTestId('comment-meta')).toContainText('edited');
  const second = comments.getByTestId('comment').nth(1);
  await second.getByRole('button', { name: /^Delete the comment of/ }).click();
  await expect(second).toContainText('Delete this comment?');
  await second.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(comments.getByTestId('comment-body')).toHaveText([
    'Key in .env of prod; rotated on Monday.',
  ]);
  await expectAccessible(page, 'finding comments with edit and delete');

  // An analyst of the project: no Edit or Delete on the admin's comment; both on their own.
  const email = `${unique('analyst')}@findings-web.test`;
  const password = 'Analyst-password-1A';
  const user = await api.post<{ id: string }>('/api/v1/admin/users', {
    email,
    password,
    is_admin: false,
  });
  const member = await api.request.put(
    `${webUrl()}/api/v1/projects/${project.id}/members/${user.id}`,
    { headers: api.authHeaders(), data: { role: 'analyst' } },
  );
  expect(member.ok(), await member.text()).toBe(true);
  const context = await browser.newContext();
  try {
    const analyst = await context.newPage();
    await signInAs(analyst, email, password);
    await analyst.goto(findingUrl);
    const theirView = analyst.getByTestId('comments');
    await addComment(analyst, 'Analyst note: check the CI logs too.');
    const adminsComment = theirView.getByTestId('comment').first();
    const ownComment = theirView.getByTestId('comment').nth(1);
    await expect(ownComment.getByRole('button', { name: /^Edit the comment of/ })).toBeVisible();
    await expect(ownComment.getByRole('button', { name: /^Delete the comment of/ })).toBeVisible();
    await expect(adminsComment.getByTestId('comment-body')).toHaveText(
      'Key in .env of prod; rotated on Monday.',
    );
    await expect(adminsComment.getByRole('button')).toHaveCount(0);
  } finally {
    await context.close();
  }

  // The admin (a moderator) may delete the analyst's comment but not edit it.
  await page.reload();
  const analystsComment = comments.getByTestId('comment').filter({ hasText: 'Analyst note' });
  await expect(analystsComment).toHaveCount(1);
  await expect(analystsComment.getByRole('button', { name: /^Edit the comment of/ })).toHaveCount(
    0,
  );
  await analystsComment.getByRole('button', { name: /^Delete the comment of/ }).click();
  await analystsComment.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(comments.getByTestId('comment')).toHaveCount(1);
});
