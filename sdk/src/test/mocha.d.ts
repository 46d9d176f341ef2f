// Minimal mocha globals (the test runner provides mocha; @types/mocha is not installed).
type Done = () => unknown;
declare function describe(name: string, fn: () => void): void;
declare function it(name: string, fn: Done): void;
declare function beforeEach(fn: Done): void;
declare function afterEach(fn: Done): void;
