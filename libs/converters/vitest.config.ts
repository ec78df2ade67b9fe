import { projectTestConfig } from '../../vitest.shared.js';

export default projectTestConfig(
  {},
  {
    // A conversion through each engine, every pair of the matrix, what documents may reference, drawn scripts: the
    // engines' own behaviour. The runner, the sandbox, the pools and the Node host stay in every Node's run.
    engineSuites: [
      'src/engines/**/*.runtime.spec.ts',
      'test/conversion-matrix.spec.ts',
      'test/document-references.spec.ts',
      'test/scripts-drawn.spec.ts',
      'test/reference-screens.spec.ts',
    ],
  },
);
