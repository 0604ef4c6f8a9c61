// Placeholder: the checker's tests (issue 5) land here.
