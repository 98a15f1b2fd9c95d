// bcryptprimitives.dll for Debian 12's Wine 8.0, which lacks it. Go 1.22
// and later load it at start-up for ProcessPrng, their only source of
// random bytes on Windows, and abort without it ("fatal error:
// bcryptprimitives.dll not found"). Wine 8.0 has RtlGenRandom
// (advapi32's SystemFunction036), which this forwards to. scripts/ci-wine.sh
// builds it with mingw-w64 and puts it beside the .exe files it runs;
// nothing outside Wine uses it.
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n)) {
			return FALSE;
		}
		data += n;
		len -= n;
	}
	return TRUE;
}
