// Commit subjects: Conventional Commits, at most 72 characters; the why and the figures go in the body.
export default {
  extends: ['@commitlint/config-conventional'],
  rules: {
    'header-max-length': [2, 'always', 72],
    // Bodies carry measurements and tables; their lines are not wrapped by rule.
    'body-max-line-length': [0],
    'footer-max-line-length': [0],
  },
};
