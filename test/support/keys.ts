/** The secret key of test apps and test processes (32 bytes, base64): fixed, so a sibling opens what another sealed. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
