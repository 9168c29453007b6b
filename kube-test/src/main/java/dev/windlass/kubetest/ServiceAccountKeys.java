package dev.windlass.kubetest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;

/**
 * The key pair the API server signs service-account tokens with. Generated in Java so that the tests need
 * no openssl; PKCS#8 and X.509 PEM are the encodings the API server reads.
 */
record ServiceAccountKeys(Path privateKey, Path publicKey) {

    static ServiceAccountKeys writeTo(Path dir) throws IOException {
        KeyPair pair;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            pair = generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot generate RSA keys", e);
        }
        Path key = Files.writeString(dir.resolve("sa.key"), pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
        Path pub = Files.writeString(dir.resolve("sa.pub"), pem("PUBLIC KEY", pair.getPublic().getEncoded()));
        return new ServiceAccountKeys(key, pub);
    }

    static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }
}
