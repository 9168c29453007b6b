package dev.windlass.git;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Date;
import java.util.Iterator;
import java.util.Locale;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openpgp.PGPCompressedData;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.jcajce.JcaPGPObjectFactory;
import org.bouncycastle.openpgp.operator.jcajce.JcaPGPContentVerifierBuilderProvider;
import org.bouncycastle.util.encoders.Hex;
import org.eclipse.jgit.lib.GpgConfig;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.SignatureVerifier;

/**
 * JGit's {@link SignatureVerifier} for OpenPGP signatures, looking keys up only in the engine's {@link TrustedKeys}
 * (handed in as {@link CommitSignatures.KeysConfig}), with BouncyCastle doing the OpenPGP work, as JGit's own
 * {@code org.eclipse.jgit.gpg.bc} verifier does. That one is not used because it finds keys only in the GnuPG home of
 * the process ({@code GNUPGHOME} or {@code ~/.gnupg}, one for the whole process) and remembers a key it did not find
 * for the life of the process.
 *
 * <p>What it answers, read by {@link CommitSignatures}: {@code verified} only for a trusted key and a matching signature;
 * trust {@code UNKNOWN}: the key is not trusted; {@code NEVER}: the key is revoked; {@code expired}: it had expired
 * when the signature was made; trust {@code FULL} and not verified: the signature does not match the data.
 */
final class TrustedOpenPgpVerifier implements SignatureVerifier {
    private static final BouncyCastleProvider PROVIDER = new BouncyCastleProvider();

    @Override public String getName() { return "windlass-trusted-keys"; }

    @Override public SignatureVerification verify(Repository repository, GpgConfig config, byte[] data, byte[] signatureData)
            throws IOException {
        PGPSignature signature = parse(signatureData);
        if (signature == null) throw new IOException("not an OpenPGP signature");
        Date created = signature.getCreationTime();
        String fingerprint = issuerFingerprint(signature);
        long keyId = signature.getKeyID();
        String named = fingerprint != null ? fingerprint : Long.toHexString(keyId).toUpperCase(Locale.ROOT);
        if (!(config instanceof CommitSignatures.KeysConfig keys)) {
            return verification(created, named, null, false, false, TrustLevel.UNKNOWN, "no trusted keys");
        }
        PGPPublicKey key = keys.trusted().openPgp().getPublicKey(keyId);
        PGPPublicKeyRing ring = keys.trusted().openPgp().getPublicKeyRing(keyId);
        if (key == null || ring == null
                || (fingerprint != null && !fingerprint.equalsIgnoreCase(Hex.toHexString(key.getFingerprint())))) {
            return verification(created, named, null, false, false, TrustLevel.UNKNOWN, "not a trusted key");
        }
        named = Hex.toHexString(key.getFingerprint()).toUpperCase(Locale.ROOT);
        String user = firstUserId(ring.getPublicKey());
        if (key.hasRevocation() || ring.getPublicKey().hasRevocation()) {
            return verification(created, named, user, false, false, TrustLevel.NEVER, "the key is revoked");
        }
        boolean expired = expiredAt(key, created) || expiredAt(ring.getPublicKey(), created);
        boolean matches;
        try {
            signature.init(new JcaPGPContentVerifierBuilderProvider().setProvider(PROVIDER), key);
            signature.update(data);
            matches = signature.verify();
        } catch (PGPException e) {
            matches = false;
        }
        return verification(created, named, user, matches && !expired, expired, TrustLevel.FULL, null);
    }

    @Override public void clear() {}

    private static SignatureVerification verification(Date created, String fingerprint, String user, boolean verified, boolean expired,
                                                      TrustLevel trust, String message) {
        return new SignatureVerification("openpgp", created, user, fingerprint, user, verified, expired, trust, message);
    }

    private static PGPSignature parse(byte[] signatureData) throws IOException {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(signatureData))) {
            Object object = new JcaPGPObjectFactory(in).nextObject();
            if (object instanceof PGPCompressedData compressed) object = new JcaPGPObjectFactory(compressed.getDataStream()).nextObject();
            return object instanceof PGPSignatureList list && !list.isEmpty() ? list.get(0) : null;
        } catch (PGPException | RuntimeException e) {
            throw new IOException("the OpenPGP signature cannot be read: " + e.getMessage(), e);
        }
    }

    private static String issuerFingerprint(PGPSignature signature) {
        if (!signature.hasSubpackets() || signature.getHashedSubPackets().getIssuerFingerprint() == null) return null;
        return Hex.toHexString(signature.getHashedSubPackets().getIssuerFingerprint().getFingerprint()).toUpperCase(Locale.ROOT);
    }

    private static boolean expiredAt(PGPPublicKey key, Date signed) {
        long valid = key.getValidSeconds();
        if (valid <= 0 || signed == null) return false;
        return key.getCreationTime().toInstant().plusSeconds(valid).isBefore(signed.toInstant());
    }

    private static String firstUserId(PGPPublicKey primary) {
        Iterator<String> ids = primary.getUserIDs();
        return ids.hasNext() ? ids.next() : null;
    }

}
