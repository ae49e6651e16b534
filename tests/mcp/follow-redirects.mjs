// Stands in for the browser in headless runs: fetches the sign-in URL and follows its
// redirects, so an authorization server that answers at once (as the conformance suite's does)
// delivers the code to Callscope's loopback listener. Usage: node follow-redirects.mjs URL
const url = process.argv[process.argv.length - 1];
try {
    const response = await fetch(url, { redirect: 'follow' });
    await response.text();
} catch (error) {
    console.error(`follow-redirects: ${error.message}`);
    process.exit(1);
}
