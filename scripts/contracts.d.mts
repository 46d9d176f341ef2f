export declare const CONTRACTS_DIR: string;
export declare function contractFile(source: string): string | null;
export declare function contracts(): {
  name: string;
  enforce: 'pre';
  resolveId: (source: string) => string | null;
};
export declare function contractsForDevServer(rootDir: string): {
  name: string;
  resolveImport: (args: { source: string }) => string | undefined;
};
