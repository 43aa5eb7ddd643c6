import { choose, clamp, fakeId, hash, n, pick, s, strings } from './input';
import { arr, bool, type ExampleTool, enumOf, int, obj, str, tool } from './types';

const repoProp = str('Repository in "owner/name" form, e.g. "octo-org/website".');
const repoUrl = (repo: string) => `https://github.com/${repo || 'owner/name'}`;

export const githubTools: ExampleTool[] = [
  tool(
    'github_create_issue',
    'Open a new issue in a GitHub repository with an optional body and labels.',
    {
      repo: repoProp,
      title: str('Issue title.'),
      body: str('Issue body in Markdown.'),
      labels: arr(str('Label name.'), 'Labels to apply to the issue.'),
    },
    ['repo', 'title'],
    (input) => ({ number: 42, url: `${repoUrl(s(input, 'repo'))}/issues/42` }),
  ),
  tool(
    'github_list_issues',
    'List issues in a repository, filtered by state, labels or assignee.',
    {
      repo: repoProp,
      state: enumOf(['open', 'closed', 'all'], 'Issue state to filter by.'),
      labels: arr(str('Label name.'), 'Only issues carrying all of these labels.'),
      assignee: str('GitHub login of the assignee.'),
      perPage: int('Results per page.', 1, 100),
    },
    ['repo'],
    (input) => {
      const repo = s(input, 'repo', 'owner/name');
      const count = clamp(n(input, 'perPage', 3), 1, 5);
      return {
        repo,
        issues: Array.from({ length: count }, (_, i) => ({
          number: 100 + i,
          title: `Issue ${i + 1} in ${repo}`,
          state: s(input, 'state', 'open') === 'closed' ? 'closed' : 'open',
          labels: strings(input, 'labels'),
        })),
      };
    },
  ),
  tool(
    'github_get_issue',
    'Fetch a single issue with its title, body, state, labels and comment count.',
    { repo: repoProp, issueNumber: int('Issue number.', 1) },
    ['repo', 'issueNumber'],
    (input) => {
      const repo = s(input, 'repo', 'owner/name');
      const number = n(input, 'issueNumber', 1);
      return {
        number,
        title: `Issue #${number}`,
        state: choose(`${repo}${number}`, ['open', 'closed'] as const),
        comments: pick(`${repo}${number}`, 0, 12),
        url: `${repoUrl(repo)}/issues/${number}`,
      };
    },
  ),
  tool(
    'github_comment_on_issue',
    'Add a comment to an existing issue or pull request.',
    {
      repo: repoProp,
      issueNumber: int('Issue or pull request number.', 1),
      body: str('Comment text.'),
    },
    ['repo', 'issueNumber', 'body'],
    (input) => ({
      id: hash(s(input, 'body')) % 1000000,
      url: `${repoUrl(s(input, 'repo'))}/issues/${n(input, 'issueNumber', 1)}#issuecomment-1`,
    }),
  ),
  tool(
    'github_close_issue',
    'Close an issue, optionally recording why it was closed.',
    {
      repo: repoProp,
      issueNumber: int('Issue number.', 1),
      reason: enumOf(['completed', 'not_planned'], 'Why the issue is being closed.'),
    },
    ['repo', 'issueNumber'],
    (input) => ({
      number: n(input, 'issueNumber', 1),
      state: 'closed',
      stateReason: s(input, 'reason', 'completed'),
    }),
  ),
  tool(
    'github_create_pull_request',
    'Open a pull request from a head branch into a base branch.',
    {
      repo: repoProp,
      title: str('Pull request title.'),
      head: str('Branch containing the changes.'),
      base: str('Branch to merge into, usually "main".'),
      body: str('Pull request description.'),
      draft: bool('Open as a draft pull request.'),
    },
    ['repo', 'title', 'head', 'base'],
    (input) => {
      const number = pick(s(input, 'head'), 100, 999);
      return {
        number,
        draft: input.draft === true,
        url: `${repoUrl(s(input, 'repo'))}/pull/${number}`,
      };
    },
  ),
  tool(
    'github_merge_pull_request',
    'Merge an open pull request using merge, squash or rebase.',
    {
      repo: repoProp,
      pullNumber: int('Pull request number.', 1),
      method: enumOf(['merge', 'squash', 'rebase'], 'Merge strategy.'),
      commitTitle: str('Title for the merge commit.'),
    },
    ['repo', 'pullNumber'],
    (input) => ({
      merged: true,
      method: s(input, 'method', 'merge'),
      sha: fakeId('sha', `${s(input, 'repo')}${n(input, 'pullNumber', 1)}`).slice(4),
    }),
  ),
  tool(
    'githubListPullRequests',
    'List pull requests in a repository, optionally filtered by state and base branch.',
    {
      repo: repoProp,
      state: enumOf(['open', 'closed', 'all'], 'Pull request state.'),
      base: str('Only pull requests targeting this branch.'),
    },
    ['repo'],
    (input) => ({
      pulls: [1, 2].map((i) => ({
        number: pick(s(input, 'repo') + i, 10, 500),
        title: `Update dependencies batch ${i}`,
        base: s(input, 'base', 'main'),
      })),
    }),
  ),
  tool(
    'githubRequestReview',
    'Request reviews on a pull request from users or teams.',
    {
      repo: repoProp,
      pullNumber: int('Pull request number.', 1),
      reviewers: arr(str('GitHub login.'), 'Users to request a review from.'),
      teamReviewers: arr(str('Team slug.'), 'Teams to request a review from.'),
    },
    ['repo', 'pullNumber', 'reviewers'],
    (input) => ({
      pullNumber: n(input, 'pullNumber', 1),
      requested: [...strings(input, 'reviewers'), ...strings(input, 'teamReviewers')],
    }),
  ),
  tool(
    'github.search-code',
    'Search code across GitHub repositories using GitHub code search syntax.',
    {
      query: str('Search query, e.g. "useEffect repo:facebook/react".'),
      language: str('Restrict results to a programming language.'),
      limit: int('Maximum results.', 1, 50),
    },
    ['query'],
    (input) => {
      const query = s(input, 'query', 'x');
      return {
        totalCount: pick(query, 0, 300),
        items: [1, 2].map((i) => ({
          repo: `example/repo-${pick(query + i, 1, 9)}`,
          path: `src/module${i}.ts`,
          line: pick(query + i, 1, 400),
        })),
      };
    },
  ),
  tool(
    'github.get-file-contents',
    'Read the contents of a file in a repository at a branch, tag or commit.',
    {
      repo: repoProp,
      path: str('File path within the repository.'),
      ref: str('Branch, tag or SHA.'),
    },
    ['repo', 'path'],
    (input) => {
      const path = s(input, 'path', 'README.md');
      return {
        path,
        ref: s(input, 'ref', 'main'),
        size: pick(path, 100, 9000),
        encoding: 'utf-8',
        content: `// contents of ${path}`,
      };
    },
  ),
  tool(
    'github__create_branch',
    'Create a new branch in a repository from an existing branch or commit.',
    { repo: repoProp, branch: str('Name of the new branch.'), from: str('Source branch or SHA.') },
    ['repo', 'branch'],
    (input) => ({
      ref: `refs/heads/${s(input, 'branch', 'feature')}`,
      from: s(input, 'from', 'main'),
      sha: hash(s(input, 'branch')).toString(16),
    }),
  ),
  tool(
    'github__list_commits',
    'List recent commits on a branch, optionally limited to a file path or author.',
    {
      repo: repoProp,
      branch: str('Branch name.'),
      path: str('Only commits touching this path.'),
      author: str('Only commits by this login or email.'),
    },
    ['repo'],
    (input) => ({
      commits: [0, 1, 2].map((i) => ({
        sha: hash(`${s(input, 'repo')}${i}`).toString(16),
        message: choose(`${s(input, 'branch')}${i}`, [
          'Fix typo',
          'Add tests',
          'Refactor',
        ] as const),
        author: s(input, 'author', 'octocat'),
      })),
    }),
  ),
  tool(
    'github_trigger_workflow',
    'Manually dispatch a GitHub Actions workflow run with optional inputs.',
    {
      repo: repoProp,
      workflow: str('Workflow file name or id, e.g. "deploy.yml".'),
      ref: str('Git ref to run the workflow on.'),
      inputs: obj({}, [], 'Workflow dispatch inputs as key/value strings.'),
    },
    ['repo', 'workflow'],
    (input) => ({
      dispatched: true,
      workflow: s(input, 'workflow', 'ci.yml'),
      ref: s(input, 'ref', 'main'),
      runId: pick(s(input, 'repo') + s(input, 'workflow'), 1000000, 9999999),
    }),
  ),
  tool(
    'github_get_repository',
    'Get repository metadata: description, default branch, stars, forks and visibility.',
    { repo: repoProp },
    ['repo'],
    (input) => {
      const repo = s(input, 'repo', 'owner/name');
      return {
        fullName: repo,
        defaultBranch: 'main',
        stars: pick(repo, 0, 50000),
        forks: pick(`${repo}f`, 0, 5000),
        visibility: choose(repo, ['public', 'private'] as const),
      };
    },
  ),
  tool(
    'github_create_release',
    'Publish a release for a tag with generated or custom release notes.',
    {
      repo: repoProp,
      tag: str('Tag name, e.g. "v1.4.0".'),
      name: str('Release title.'),
      notes: str('Release notes in Markdown.'),
      prerelease: bool('Mark as a pre-release.'),
    },
    ['repo', 'tag'],
    (input) => ({
      id: pick(s(input, 'tag'), 10000, 99999),
      tag: s(input, 'tag', 'v0.0.0'),
      url: `${repoUrl(s(input, 'repo'))}/releases/tag/${s(input, 'tag', 'v0.0.0')}`,
    }),
  ),
];
