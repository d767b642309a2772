import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  server: { port: 5173, host: '127.0.0.1' },
  preview: { port: 4173, host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts', 'app/**/*.test.ts', 'app/**/*.test.tsx', 'bench/**/*.test.ts'],
    environment: 'node',
    // Property tests over long made-up sessions take seconds on a loaded 2-core machine.
    testTimeout: 20_000,
  },
});
