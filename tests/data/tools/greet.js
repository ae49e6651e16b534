// Command tool for tst_tools: reads the arguments JSON on stdin and greets args.name.
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
    const args = JSON.parse(input);
    process.stdout.write(`Hello, ${args.name}! (${Object.keys(args).length} argument(s))`);
});
