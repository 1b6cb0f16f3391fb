/*
 * What keeps libsoundstage loadable on glibc 2.34 (RHEL 9 and its rebuilds, Fedora 35) and not
 * only on 2.35 and newer: glibc 2.35 gave hypotf a new symbol version, and the Swift Glibc
 * overlay linked into the library refers to it. This definition, hidden inside the library,
 * answers that reference instead, so no GLIBC_2.35 symbol is needed (scripts/size-report.sh
 * prints the versioned symbols that set the floor; docs/c-api.md, "Where it runs").
 */
__attribute__((visibility("hidden"))) float hypotf(float x, float y) {
    if (__builtin_isinf(x) || __builtin_isinf(y)) return __builtin_inff();
    double a = (double)x, b = (double)y;
    /* Float inputs cannot overflow or lose precision in double. */
    return (float)__builtin_sqrt(a * a + b * b);
}
