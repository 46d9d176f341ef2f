// One build entry for the packages (`npm run build` at the root): each package keeps its own
// rollup configuration, imported here and built in this order, since the React example bundles
// the SDK's npm output. A package's own `npm run build` still works on its own.
import sdk from './sdk/rollup.config.mjs';
import dashboard from './dashboard/rollup.config.mjs';
import example from './examples/react/rollup.config.mjs';

export default [sdk, dashboard, example].flat();
