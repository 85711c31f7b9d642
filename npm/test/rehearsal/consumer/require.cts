// A CommonJS consumer, compiled with tsc --strict like types.mts.
import lr = require('landlock-run');
import compat = require('landlock-run/compat');

const args: string[] = lr.grantArgs({ ro: ['/'], noTcp: true });
const exit: 125 = compat.LAUNCHER_FAILURE_EXIT;
export = [args, exit];
