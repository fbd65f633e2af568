// The system OpenSSL's libcrypto, for RS256 signing only: its RSA is about twice as fast as the BoringSSL that
// swift-crypto bundles. Its symbols do not clash with BoringSSL's, which swift-crypto and swift-nio-ssl prefix.
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
