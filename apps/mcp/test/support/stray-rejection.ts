/** Run as its own process by stray-errors.spec: a rejection nobody handles, then proof the process goes on. */
import { logStrayErrorsAndContinue } from '../../src/stray-errors.js';

logStrayErrorsAndContinue();
void Promise.reject(new Error('nobody handled this'));
setImmediate(() => process.stdout.write('still running\n'));
