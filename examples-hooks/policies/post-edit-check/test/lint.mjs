// The table's check signal: fails (exit 1) with coloured output and a control character, like a linter on a terminal.
process.stdout.write('\u001b[31msrc/app.ts:3:7 error\u001b[0m  no-unused-vars: x is never used\u0007\n');
process.stderr.write('1 problem\n');
process.exit(1);
