export declare const SECRET: string;
export declare const JWT_SECRET: string;
export declare function serverEnv(extra?: Record<string, string>): Record<string, string>;
