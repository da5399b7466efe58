import {
  expect,
  expectAccessible,
  screenshot,
  seedFindings,
  signIn,
  test,
  webUrl,
} from './support/fixtures';

test('findings list: query mode filters, a syntax error is shown inline and not run, the view is in the URL, keys navigate', async ({
  page,
  api,
}) => {
  const { project } = await seedFindings(api);
  await signIn(page);

  // Filter mode: the project filter in the URL.
  await page.goto(`${webUrl()}/findings?project_id=${project.id}`);
  await expect(page.getByTestId('finding-row')).toHaveCount(3);
  await expectAccessible(page, 'findings');
  await screenshot(page, 'findings-filtered');

  // Query mode. The switch is bound to the URL, and the router applies URL changes in a React
  // transition: right after the click the input may still show the old state for a moment (on
  // a loaded machine long enough for Playwright's check() to call it unchanged). So click, then
  // wait for the state to arrive.
  const queryMode = page.getByRole('switch', { name: 'Query mode' });
  await queryMode.click();
  await expect(queryMode).toBeChecked();
  const query = page.getByRole('textbox', { name: 'Query' });
  await query.fill(`project:"${project.name}" AND severity:HIGH`);
  await query.press('Enter');
  await expect(page.getByTestId('finding-row')).toHaveCount(1);
  await expect(page.getByTestId('finding-row')).toContainText('Rule sql-injection');
  await expect(page).toHaveURL(/mode=query/);

  // A link reproduces the view.
  const link = page.url();
  // Two loads back to back: each restores the session by rotating the refresh cookie, and the
  // first may be left before its answer arrives; the server's rotation grace window keeps the
  // session (without it this load was signed out: docs/auth-tokens.md).
  await page.goto(`${webUrl()}/projects`);
  await page.goto(link);
  await expect(page.getByRole('textbox', { name: 'Query' })).toHaveValue(
    `project:"${project.name}" AND severity:HIGH`,
  );
  await expect(page.getByTestId('finding-row')).toHaveCount(1);

  // A syntax error: the API refuses the query (400 query_syntax_error), nothing is listed.
  const refused = page.waitForResponse(
    (r) => r.url().includes('/api/v1/findings?') && r.status() === 400,
  );
  await query.fill(`project:"${project.name}" AND severity:`);
  await query.press('Enter');
  await refused;
  const error = page.getByTestId('query-syntax-error');
  await expect(error).toContainText('query syntax error at position');
  await expect(error).toContainText('^');
  await expect(page.getByTestId('finding-row')).toHaveCount(0);
  await expectAccessible(page, 'findings with a syntax error');
  await screenshot(page, 'findings-query-syntax-error');

  // Keyboard: the grid takes focus, j moves down, Enter opens the finding.
  await query.fill(`project:"${project.name}"`);
  await query.press('Enter');
  await expect(page.getByTestId('finding-row')).toHaveCount(3);
  await page.getByTestId('findings-grid').focus();
  await page.keyboard.press('j');
  await expect(page.getByTestId('finding-row').nth(1)).toHaveAttribute('data-active', 'true');
  const title =
    (await page.getByTestId('finding-row').nth(1).getByRole('link').textContent()) ?? '';
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
});
