/**
 * The baseline of `make bench`: a bare Express app on loopback answering GET /api/user with a
 * fixed JSON body of the same shape as the gateway's. Prints `PORT <n>` once listening.
 */
import express from 'express';

const body = {
  id: 1,
  name: 'Bench User',
  picture: null,
  email: 'bench@example.com',
  email_status: 'unverified',
  hasInvalidEmail: false,
  role: null,
};

const app = express();
app.disable('x-powered-by');
app.get('/api/user', (_req, res) => {
  res.json(body);
});

const server = app.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  console.log(`PORT ${port}`);
});
server.keepAliveTimeout = 65_000;

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
