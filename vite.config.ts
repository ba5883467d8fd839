// Builds the window once for both hosts: Electron loads it from app://headroom and `npm run serve`
// serves it over http, so every asset path is relative (base './').
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here("./renderer"),
  base: "./",
  plugins: [react()],
  build: {
    outDir: here("./dist/renderer"),
    emptyOutDir: true,
    // One small bundle: the window is opened locally, never over a slow network.
    chunkSizeWarningLimit: 1024,
  },
});
