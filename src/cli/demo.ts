export async function demo(_o: Record<string, unknown>): Promise<number> {
  return 0;
}
