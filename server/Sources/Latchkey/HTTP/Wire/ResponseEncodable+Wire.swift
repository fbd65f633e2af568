import Hummingbird
import LatchkeyWire

// The wire answers are written by the request context's encoder, as every JSON answer is: sorted keys, plain slashes,
// and absent optionals left out rather than written as null. The conformances are retroactive (both sides imported):
// the wire types belong to the client package, which knows nothing of Hummingbird, so it can never declare them.
extension GetOobConfirmationCodeResponse: @retroactive ResponseEncodable {}
extension EmailLinkSigninResponse: @retroactive ResponseEncodable {}
extension ResetPasswordResponse: @retroactive ResponseEncodable {}
extension SignupNewUserResponse: @retroactive ResponseEncodable {}
extension VerifyPasswordResponse: @retroactive ResponseEncodable {}
extension DownloadAccountResponse: @retroactive ResponseEncodable {}
extension CancelRecoverEmailResponse: @retroactive ResponseEncodable {}
extension UploadAccountResponse: @retroactive ResponseEncodable {}
extension SignInWithIdpResponse: @retroactive ResponseEncodable {}
extension CreateAuthUriResponse: @retroactive ResponseEncodable {}
extension SignInWithCustomTokenResponse: @retroactive ResponseEncodable {}
extension SendVerificationCodeResponse: @retroactive ResponseEncodable {}
extension SignInWithPhoneNumberResponse: @retroactive ResponseEncodable {}
extension StartMfaSignInResponse: @retroactive ResponseEncodable {}
extension RevokeTokenResponse: @retroactive ResponseEncodable {}
extension GetAccountInfoResponse: @retroactive ResponseEncodable {}
extension SetAccountInfoResponse: @retroactive ResponseEncodable {}
extension DeleteAccountResponse: @retroactive ResponseEncodable {}
extension CreateSessionCookieResponse: @retroactive ResponseEncodable {}
extension BatchDeleteAccountsResponse: @retroactive ResponseEncodable {}
extension GrantTokenResponse: @retroactive ResponseEncodable {}
extension OpenIDConfiguration: @retroactive ResponseEncodable {}
extension OAuthIdpConfig: @retroactive ResponseEncodable {}
extension DefaultSupportedIdpConfig: @retroactive ResponseEncodable {}
extension ListOAuthIdpConfigsResponse: @retroactive ResponseEncodable {}
extension ListDefaultSupportedIdpConfigsResponse: @retroactive ResponseEncodable {}
extension EmptyResponse: @retroactive ResponseEncodable {}
extension GetProjectConfigResponse: @retroactive ResponseEncodable {}
extension StartMfaEnrollmentResponse: @retroactive ResponseEncodable {}
extension FinalizeMfaResponse: @retroactive ResponseEncodable {}
extension ProjectConfigResource: @retroactive ResponseEncodable {}
extension GetRecaptchaConfigResponse: @retroactive ResponseEncodable {}
extension GetRecaptchaParamResponse: @retroactive ResponseEncodable {}
extension VerifyClientResponse: @retroactive ResponseEncodable {}
extension GetPasswordPolicyResponse: @retroactive ResponseEncodable {}
