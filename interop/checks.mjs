// The interop clients' shared bookkeeping: each check prints ok or FAIL, and the run ends with a
// summary and an exit code that CI reads.
let passed = 0;
let failed = 0;

export function check(name, condition, detail) {
  if (condition) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}: ${JSON.stringify(detail)}`);
  }
}

export function finish(label) {
  console.log(`${label}: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
